import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { RequestForm } from './request-form';
import { TerminalSerialPipe } from './terminal-serial.pipe';

/** Which terminal a request names: none in the Local form (the bound one), the path's in Cloud. */
export interface TerminalTarget {
  form: RequestForm;
  /** The path's serial, Cloud form only. */
  serial?: string;
}

/** The path parameter of the Cloud form, `/terminal/v1/{terminalSerial}/...`. */
export const TERMINAL_SERIAL_PARAM = 'terminalSerial';

/** Paths of one route in both forms (contract §2): `[rest, ':terminalSerial/' + rest]`. */
export const bothForms = (rest: string): string[] => [rest, `:${TERMINAL_SERIAL_PARAM}/${rest}`];

/**
 * The form and serial of a handler served under both forms of its path (see `bothForms`). A serial
 * that cannot exist is NF-002, as TerminalSerialPipe answers it.
 */
export const Terminal = createParamDecorator((_data: unknown, context: ExecutionContext): TerminalTarget => {
  const serial = context.switchToHttp().getRequest<Request>().params[TERMINAL_SERIAL_PARAM];
  if (typeof serial !== 'string') return { form: 'local' };
  return { form: 'cloud', serial: new TerminalSerialPipe().transform(serial) };
});
