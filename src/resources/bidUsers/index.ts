/** bidUsers: read-only, entirely from the schema (list and show, as its x-endpoints allow). */
import { schemaResource } from '../../schema-ui/schemaResource';

export default schemaResource('bidUsers');
