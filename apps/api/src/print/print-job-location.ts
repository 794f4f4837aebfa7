import type { RequestForm } from '../terminals/request-form';

/**
 * The status route of a job in the form it was sent through (print.controller.ts): a job is found
 * through the form and terminal it belongs to (contract, Print jobs).
 */
export function printJobLocation(form: RequestForm, serial: string, printJobId: string): string {
  return form === 'cloud' ? `/terminal/v1/${serial}/print/${printJobId}` : `/terminal/v1/print/${printJobId}`;
}
