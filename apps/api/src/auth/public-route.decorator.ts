import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'tps:public-route';

/** Marks a route that answers without credentials (health only); every other route is signed. */
export const PublicRoute = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);
