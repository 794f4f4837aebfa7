import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const PUBLIC_ROUTE = 'tps:public-route';
/** Tells the OpenAPI document that the route needs no signature. */
export const PUBLIC_EXTENSION = 'x-public-route';

/** Marks a route that answers without credentials (health only); every other route is signed. */
export const PublicRoute = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(PUBLIC_ROUTE, true), ApiExtension(PUBLIC_EXTENSION, true));
