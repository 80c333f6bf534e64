/**
 * Artworks: the generic schema views plus what the schema cannot say: the images input (upload or URL,
 * up to 9, first is main). The author autocomplete (`x-ui.reference: authors`) and the category select
 * (`x-ui.widget: category`, from `GET /artmanager/artSort/artcateList`) come from the kind map. Beside
 * the show page, the on-chain panel (put on chain, in-browser proof check).
 */
import { schemaResource } from '../../schema-ui/schemaResource';
import { OnChainPanel } from '../blockchain';
import { lazyComponent } from '../../shell/lazy';
import type { KindProps } from '../../schema-ui/kindMap';

/** The images input loads with the form that shows it. */
const ImagesInput = lazyComponent<KindProps>(() => import('./ImagesInput').then((m) => m.default));

const artworks = schemaResource('artworks', {
  inputs: { images: ImagesInput },
  showAside: <OnChainPanel kind="artwork" />,
});
export default artworks;
