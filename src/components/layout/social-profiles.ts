/** The brand's social profiles, shown in the footer and on the contact page. */
export type SocialNetwork = 'linkedin' | 'x' | 'facebook' | 'instagram';

export interface SocialProfile {
  network: SocialNetwork;
  label: string;
  url: string;
}

export const SOCIAL_PROFILES: readonly SocialProfile[] = [
  { network: 'linkedin', label: 'LinkedIn', url: 'https://www.linkedin.com/company/beacon-growth' },
  { network: 'x', label: 'X (Twitter)', url: 'https://x.com/beacongrowth' },
  { network: 'facebook', label: 'Facebook', url: 'https://www.facebook.com/beacongrowth' },
  { network: 'instagram', label: 'Instagram', url: 'https://www.instagram.com/beacongrowth' },
];
