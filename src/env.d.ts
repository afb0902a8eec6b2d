/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** This request's server data, set by the server per request; read it through `serverContext(locals)`. */
    server?: import('./lib/server/context.ts').ServerContext;
    /** The pages' header policy as the server builds it (page-csp.ts `pagePolicy`, with its image hosts); the middleware appends it. */
    pageCsp?: string;
  }
}
