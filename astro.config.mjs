// @ts-check
import mdx from '@astrojs/mdx';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, passthroughImageService } from 'astro/config';
import buildOrigin from './src/integrations/build-origin.ts';
import devApi from './src/integrations/dev-api.ts';
import pageSnapshots from './src/integrations/page-snapshots.ts';
import precompress from './src/integrations/precompress.ts';

const port = process.env.PORT || '3000';
// Stripe's embedded Checkout (STRIPE_CHECKOUT_UI=embedded) loads Stripe.js from js.stripe.com when a
// member pays; otherwise scripts come from our origin only.
const scriptSources = process.env.STRIPE_CHECKOUT_UI === 'embedded' ? ["'self'", 'https://js.stripe.com'] : undefined;

export default defineConfig({
  // The origin prebuilt pages are written with; the server serves them with its run-time SITE_URL.
  site: process.env.SITE_URL || `http://localhost:${port}`,
  outDir: process.env.DIST_DIR || 'dist',
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  trailingSlash: 'never',
  integrations: [react(), mdx(), precompress(), buildOrigin(), pageSnapshots(), devApi()],
  security: { csp: scriptSources ? { scriptDirective: { resources: scriptSources } } : true },
  // No page uses astro:assets: images are served as written, so neither the server nor a function
  // carries sharp and its 18 MB of libvips for an endpoint nothing calls.
  image: { service: passthroughImageService() },
  markdown: { syntaxHighlight: false },
  vite: { plugins: [tailwindcss()] },
});
