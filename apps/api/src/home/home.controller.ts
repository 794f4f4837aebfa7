import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { PublicRoute } from '../auth/public-route.decorator';
import { ApiConfig } from '../config/api-config';

/** Where a person who opens the service's address goes next (contract §18). */
export interface Home {
  service: string;
  profile: 'sandbox' | 'production';
  links: Record<string, string>;
}

class HomeDoc {
  @ApiProperty({ example: 'Terminal Payment Service' }) service!: string;
  @ApiProperty({ enum: ['sandbox', 'production'] }) profile!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'the pages and documents this service serves, by name, as paths on this host',
    example: {
      console: '/console',
      docs: '/docs',
      openapi: '/openapi.json',
      ready: '/ready',
      health: '/health',
    },
  })
  links!: Record<string, string>;
}

@ApiTags('health')
@PublicRoute()
@Controller()
export class HomeController {
  private readonly home: Home;

  constructor(config: ApiConfig) {
    const sandbox = config.PROFILE === 'sandbox';
    this.home = {
      service: 'Terminal Payment Service',
      profile: config.PROFILE,
      links: {
        // The console is a sandbox page (contract §15).
        ...(sandbox ? { console: '/console' } : {}),
        docs: '/docs',
        openapi: '/openapi.json',
        ready: '/ready',
        health: '/health',
      },
    };
  }

  @Get()
  @ApiOperation({
    summary: 'Where to go from here: the console, the docs, the OpenAPI document, readiness',
    description: 'No signature. The links are paths on the host this answer came from.',
  })
  @ApiOkResponse({ type: HomeDoc, description: 'what this service serves' })
  index(): Home {
    return this.home;
  }
}
