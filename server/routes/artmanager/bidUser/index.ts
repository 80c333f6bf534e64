/** `/artmanager/bidUser/*`: list and detail of bid users (roles from schemas/bidUser.schema.json). */
import { appUserRoutes } from '../common';

export default appUserRoutes('bid_users', 'bidUser');
