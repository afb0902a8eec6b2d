/**
 * Reads the services (content/services/*.yaml) for pages, validated with the collection's schema.
 *
 * Why not `getCollection('services')`: the header renders on on-demand pages too (not-found pages),
 * and any `astro:content` call there bundles the whole content data layer, gated MDX bodies
 * included, into the server build. Importing the six small YAML files directly keeps the server
 * bundle free of them. The collection in src/content.config.ts still validates the same files at
 * build time and gives editors the field descriptions.
 */
import { parse } from 'yaml';
import { ServiceSchema, sortServices, type Service } from '#shared/offerings.ts';

const files = import.meta.glob<string>('../../../content/services/*.{yaml,yml}', { query: '?raw', import: 'default', eager: true });

function load(): Service[] {
  const services = Object.entries(files)
    .filter(([file]) => !/\/_[^/]*$/.test(file))
    .map(([file, text]) => {
      const id = file.replace(/^.*\/([^/]+)\.ya?ml$/, '$1');
      const parsed = ServiceSchema.safeParse(parse(text));
      if (!parsed.success) throw new Error(`Invalid service file ${file}:\n${parsed.error.message}`);
      return { ...parsed.data, id };
    });
  return sortServices(services);
}

const SERVICES = load();

/** Every service, sorted for menus and grids. */
export async function getServices(): Promise<Service[]> {
  return SERVICES;
}

/** One service by id (its file name), or undefined. */
export async function getService(id: string): Promise<Service | undefined> {
  return SERVICES.find((s) => s.id === id);
}
