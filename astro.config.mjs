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
import searchIndex from './src/integrations/search-index.ts';
import { createHash } from 'node:crypto';
import { ATTRIBUTION_SCRIPT } from './src/lib/browser/attribution.ts';

const port = process.env.PORT || '3000';
/** The CSP hash of the inline sign-up attribution script (src/lib/browser/attribution.ts). */
const ATTRIBUTION_HASH = /** @type {`sha256-${string}`} */ (`sha256-${createHash('sha256').update(ATTRIBUTION_SCRIPT).digest('base64')}`);
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
  integrations: [react(), mdx(), searchIndex(), precompress(), buildOrigin(), pageSnapshots(), devApi()],
  // The sign-up attribution script every page carries inline (BaseLayout) is allowed by its hash here,
  // for every page at once: a hash inserted while an on-demand page streams came too late for its header.
  security: { csp: { scriptDirective: { ...(scriptSources ? { resources: scriptSources } : {}), hashes: [ATTRIBUTION_HASH] } } },
  // No page uses astro:assets: images are served as written, so neither the server nor a function
  // carries sharp and its 18 MB of libvips for an endpoint nothing calls.
  image: { service: passthroughImageService() },
  markdown: { syntaxHighlight: false },
  vite: { plugins: [tailwindcss()] },
});
