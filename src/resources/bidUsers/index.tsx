/**
 * Bid users: the generic schema views (list with search, add via `subjects/insertUser`, details) plus a
 * panel the schema cannot say, beside the show page: the artworks whose bid user this is (react-admin
 * getManyReference on target `bid`, i.e. `GET /artmanager/subjects/artworkListByCurrentUserId?id=`). The
 * avatar is uploaded by the schema engine's file input (`avatar.x-upload`).
 */
import { schemaResource } from '../../schema-ui/schemaResource';
import { lazyComponent } from '../../shell/lazy';

/** The works panel (react-admin's datagrid and reference field) loads with the show page. */
const BidWorks = lazyComponent(() => import('./BidWorks').then((m) => m.default));

const bidUsers = schemaResource('bidUsers', { showAside: <BidWorks /> });
export default bidUsers;
