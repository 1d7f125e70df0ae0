import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config.js';
import { ServerSecrets } from './server-secrets.js';

/** Makes the one validated AppConfig, and the server's secrets, injectable everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }, ServerSecrets], exports: [AppConfig, ServerSecrets] };
  }
}
