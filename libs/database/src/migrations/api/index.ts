import { InitialApiSchema1795334400000 } from './1795334400000-initial-schema';

/** The API's migrations, oldest first. */
export const API_MIGRATIONS = [InitialApiSchema1795334400000];
