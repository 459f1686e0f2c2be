declare module 'email-providers' {
  /** Domains of free and personal e-mail providers (maintained list). */
  const all: string[];
  export default all;
}
