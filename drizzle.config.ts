import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './functions/platform/db/schema.ts',
  out: './functions/platform/db/migrations',
});
