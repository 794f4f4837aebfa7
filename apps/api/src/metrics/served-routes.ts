import { Injectable, RequestMethod, type OnApplicationBootstrap } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ApiMetrics, type ServedRoute } from './api-metrics';

/** A path as a decorator gives it: one, several, or none (the controller's or method's root). */
function pathsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return [typeof value === 'string' ? value : ''];
}

/** The route template Express matches, as Nest joins a controller's path and a method's. */
export function routeTemplate(controllerPath: string, methodPath: string): string {
  const segments = [controllerPath, methodPath].flatMap((path) => path.split('/')).filter(Boolean);
  return `/${segments.join('/')}`;
}

/**
 * Tells the metrics every route the service serves, once the routes are known, so that each
 * has the series of its 5xx answers from the start (README, "Metrics").
 */
@Injectable()
export class ServedRoutes implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly metrics: ApiMetrics,
  ) {}

  onApplicationBootstrap(): void {
    this.metrics.routesServed(this.routes());
  }

  private routes(): ServedRoute[] {
    return this.discovery.getControllers().flatMap(({ metatype, instance }) => {
      if (metatype === null || metatype === undefined || instance === null || instance === undefined)
        return [];
      const controllerPaths = pathsOf(this.reflector.get(PATH_METADATA, metatype));
      const prototype = Object.getPrototypeOf(instance) as object;
      return this.scanner.getAllMethodNames(prototype).flatMap((name) => {
        const handler = (prototype as Record<string, unknown>)[name] as () => unknown;
        const method = this.reflector.get<RequestMethod | undefined>(METHOD_METADATA, handler);
        if (method === undefined) return [];
        const methodPaths = pathsOf(this.reflector.get(PATH_METADATA, handler));
        return controllerPaths.flatMap((controllerPath) =>
          methodPaths.map((methodPath) => ({
            method: RequestMethod[method],
            route: routeTemplate(controllerPath, methodPath),
          })),
        );
      });
    });
  }
}
