import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, DatabaseTarget } from './data-source-options.js';
import { runMigrationsLocked } from './run-migrations.js';
import { Transactions } from './transactions.js';

/**
 * The TypeORM connection, and `Transactions` (global) through which everything reaches it. The
 * data source is handed out only after migrations have run,
 * so nothing ever queries an old schema. An embedded server (if any) is started by
 * `startServer` before Nest and stopped after it, so it outlives every query.
 */
@Module({})
export class DatabaseModule {
  static forRoot(target: DatabaseTarget): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [Transactions],
      exports: [Transactions],
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ ...buildDataSourceOptions(target), autoLoadEntities: true }),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            await runMigrationsLocked(dataSource);
            return dataSource;
          },
        }),
      ],
    };
  }
}
