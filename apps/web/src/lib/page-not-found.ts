/**
 * Thrown by a screen whose API answered 404 for the whole page (e.g. the admin console for someone who
 * administers nothing): the router shows the not-found page in its place, as for an unknown address.
 */
export class PageNotFound extends Error {
  constructor() {
    super('page not found');
  }
}
