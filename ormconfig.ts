// Data source for the TypeORM CLI (npm run migration:generate|run|revert). It needs DATABASE_URL:
// generate migrations against a local PostgreSQL, e.g.
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dev npm run migration:generate -- src/database/migrations/<name>
// The app itself runs the same migrations at start (under an advisory lock), embedded or not.
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './src/database/data-source-options.js';

if (!process.env.DATABASE_URL) throw new Error('The TypeORM CLI needs DATABASE_URL (a PostgreSQL connection string)');

export default new DataSource(buildDataSourceOptions({ url: process.env.DATABASE_URL }, [new URL('./src/**/*.entity.ts', import.meta.url).pathname]));
