import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each domain keeps its tables beside its store (functions/<domain>/tables.ts); drizzle-kit reads them all.
  schema: './functions/**/tables.ts',
  out: './functions/platform/db/migrations',
});
