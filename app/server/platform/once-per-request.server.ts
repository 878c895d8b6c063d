/**
 * `read`, made once per request: the loaders of one page (the shell's and the page's) get the same Request
 * (decision 134's patch), so they share one promise. A loader after an action gets a new Request and reads
 * afresh, so it sees what the action changed.
 */
export function oncePerRequest<T>(read: (request: Request) => Promise<T>): (request: Request) => Promise<T> {
  const byRequest = new WeakMap<Request, Promise<T>>();
  return (request) => {
    let found = byRequest.get(request);
    if (!found) {
      found = read(request);
      byRequest.set(request, found);
    }
    return found;
  };
}
