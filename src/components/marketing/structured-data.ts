/** schema.org objects for JSON-LD (BaseLayout's `jsonLd` prop). */
import { SITE } from '#shared/site.ts';
import type { Service } from '#shared/offerings.ts';
import { SOCIAL_PROFILES } from '../layout/social-profiles.ts';

const provider = (site: URL) => ({ '@type': 'Organization', name: SITE.name, url: new URL('/', site).href });

/** The consultancy, for the home page. */
export function organizationLd(site: URL) {
  const [city, region] = SITE.location.split(', ');
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: SITE.name,
    alternateName: `${SITE.abbreviation} Consulting`,
    description: SITE.tagline,
    url: new URL('/', site).href,
    logo: new URL('/favicon.svg', site).href,
    image: new URL('/images/social-card.png', site).href,
    email: SITE.email,
    telephone: SITE.phone,
    foundingDate: '2018',
    address: { '@type': 'PostalAddress', addressLocality: city, addressRegion: region, addressCountry: 'US' },
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'customer service',
      email: SITE.email,
      telephone: SITE.phone,
      availableLanguage: 'English',
      hoursAvailable: {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '09:00',
        closes: '17:00',
      },
    },
    sameAs: SOCIAL_PROFILES.map((p) => p.url),
  };
}

/** One service, for its detail page. */
export function serviceLd(service: Service, site: URL) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name: service.title,
    serviceType: service.title,
    description: service.fullDescription,
    url: new URL(`/services/${service.id}`, site).href,
    provider: provider(site),
    areaServed: { '@type': 'Country', name: 'United States' },
  };
}
