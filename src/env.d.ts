/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Public content, injected by the server for on-demand pages. */
    content?: import('./lib/content/reader.ts').PublicContentReader;
  }
}
