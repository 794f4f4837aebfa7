import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ContractError } from '@tps/domain';
import { PublicRoute } from '../auth/public-route.decorator';
import { precompressedVariant } from './precompressed-variant';

/** Where `npm run build` puts the console's bundle: dist/console, beside dist/apps. */
export const CONSOLE_DIR = join(__dirname, '..', '..', '..', '..', 'console');

const ASSET_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * The page holds no secret and no data: everything it shows it fetches through the signed
 * routes, with credentials the person types in. So the page and its assets are public, and the
 * policy keeps it from loading or sending anything anywhere but this service.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

@ApiExcludeController()
@PublicRoute()
@Controller('console')
export class ConsolePageController {
  @Get()
  page(@Res() response: Response): void {
    const index = join(CONSOLE_DIR, 'index.html');
    if (!existsSync(index)) throw new ContractError('NF-000', 'the console is not built: run npm run build');
    response.set(PAGE_HEADERS).sendFile(index);
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Req() request: Request, @Res() response: Response): void {
    const file = join(CONSOLE_DIR, 'assets', name);
    if (!ASSET_NAME.test(name) || name.startsWith('.') || !existsSync(file)) {
      throw new ContractError('NF-000', 'no such console asset');
    }
    response.set({ 'x-content-type-options': 'nosniff' }).vary('Accept-Encoding');
    // The build wrote name.br and name.gz beside the asset; the type stays the asset's own.
    const variant = precompressedVariant(file, (encoding) => request.acceptsEncodings(encoding) === encoding);
    if (variant !== undefined) {
      response.type(name).set('content-encoding', variant.encoding);
    }
    // Names carry a content hash: a new build is a new name.
    response.sendFile(variant?.file ?? file, { maxAge: '1y', immutable: true });
  }
}
