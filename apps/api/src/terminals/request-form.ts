/** How a request reaches its terminal (contract §2): the bound one (Local) or by serial (Cloud). */
export type RequestForm = 'local' | 'cloud';
