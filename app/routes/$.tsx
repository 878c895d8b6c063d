import { json } from "@remix-run/node";

/** Any URL no route knows: a 404 page (a thrown response, so it is not logged as a server error). */
export function loader() {
  throw json({ message: "The page you asked for does not exist or has moved." }, { status: 404 });
}

// A component makes this a page route, so the root error boundary renders the 404 page; it never renders itself.
export default function NotFound() {
  return null;
}
