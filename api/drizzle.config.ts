import { defineConfig } from 'drizzle-kit';

// `cd api && npx drizzle-kit generate` writes a new migration into api/drizzle.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
});
