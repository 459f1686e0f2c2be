/** The console's sections, each its own address under /app/admin (People is the console's own address). */
export const SECTIONS = [
  { id: 'people', slug: '' },
  { id: 'requests', slug: 'requests' },
  { id: 'signupRules', slug: 'sign-up-rules' },
  { id: 'securityPolicy', slug: 'security-policy' },
  { id: 'audit', slug: 'audit' },
  { id: 'sso', slug: 'single-sign-on' },
  { id: 'admins', slug: 'administrators' },
] as const;
export type SectionId = (typeof SECTIONS)[number]['id'];

export const CONSOLE_PATH = '/app/admin';

export const sectionPath = (id: SectionId): string => {
  const slug = SECTIONS.find((s) => s.id === id)?.slug ?? '';
  return slug ? `${CONSOLE_PATH}/${slug}` : CONSOLE_PATH;
};

/** The section an address shows; undefined: no such section (the not-found page). */
export function sectionOf(pathname: string): SectionId | undefined {
  const slug = pathname
    .slice(CONSOLE_PATH.length)
    .replace(/^\/+|\/+$/g, '')
    .toLowerCase();
  return SECTIONS.find((s) => s.slug === slug)?.id;
}
