/**
 * Authors: the generic schema views plus what the schema cannot say: the "look at works" button (list
 * rows and show page) and its page `/authors/:id/works` (the author's artworks via getManyReference),
 * the mini-program code (QR code, download, generate: WxCodeField) on the mini-program tab, and the
 * on-chain panel (put on chain, in-browser proof check) beside the show page. The portrait is uploaded by
 * the schema engine's file input (`portrait.x-upload`).
 */
import { Route } from 'react-router';
import { schemaResource } from '../../schema-ui/schemaResource';
import { OnChainPanel } from '../blockchain';
import { lazyComponent } from '../../shell/lazy';
import LookAtWorksButton from './LookAtWorksButton';

const AuthorWorks = lazyComponent(() => import('./AuthorWorks').then((m) => m.default));
/** The mini-program tab's QR code (the `qrcode` package) loads when that tab shows. */
const WxCodeField = lazyComponent(() => import('./WxCodeField').then((m) => m.default));

const authors = schemaResource(
  'authors',
  {
    fields: { wxCode: WxCodeField },
    rowActions: <LookAtWorksButton />,
    showActions: <LookAtWorksButton />,
    showAside: <OnChainPanel kind="author" />,
  },
  { children: <Route path=":id/works" element={<AuthorWorks />} /> },
);
export default authors;
