import { InitialApiSchema1795334400000 } from './1795334400000-initial-schema';
import { PrintJobs1795334800000 } from './1795334800000-print-jobs';

/** The API's migrations, oldest first. */
export const API_MIGRATIONS = [InitialApiSchema1795334400000, PrintJobs1795334800000];
