/** `/artmanager/user/*`: list and detail of platform users (roles from schemas/platformUser.schema.json). */
import { appUserRoutes } from '../common';

export default appUserRoutes('platform_users', 'platformUser');
