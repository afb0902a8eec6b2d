/** Brand constants shared by pages, islands, emails and the server. */
export const SITE = {
  name: 'Beacon Growth',
  abbreviation: 'BG',
  tagline: 'Digital growth consulting for ambitious businesses',
  /** Default author of content written by the team. */
  teamName: 'Beacon Growth Team',
  /** Two-letter avatar used when an author has no picture. */
  teamInitials: 'BG',
  email: 'hello@beacongrowth.co',
  phone: '+1 (410) 555-0142',
  location: 'Baltimore, Maryland',
  hours: 'Monday-Friday 9am-5pm EST',
} as const;
