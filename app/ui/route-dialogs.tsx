import { Drawer } from "@mantine-parts/components/Drawer/Drawer.mjs";
import { Modal } from "@mantine-parts/components/Modal/Modal.mjs";
import { Link, useNavigate } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";

/**
 * Drawers and modals that are routes (DESIGN §3): the server renders them open — withinPortal={false},
 * since Mantine's portal only mounts in the browser — and closing goes to `closeTo`. The close button and
 * the overlay are links there, so closing works without JavaScript; with it, onClose navigates (and Escape
 * closes). Measured with Mantine 8:
 * - outside a portal the fixed inner box would start where the page's content starts: it is pinned left;
 * - Mantine names the dialog after its title only once mounted: aria-label names it in the server's HTML.
 */
const PINNED_LEFT = { inner: { left: 0 } };

/** With JavaScript onClose navigates; the links' own navigation is for browsers without it. */
const leaveToCloseHandler = (event: MouseEvent) => event.preventDefault();

/** Mantine's element rendered as a link (its polymorphic types do not know Link's props). */
const linkTo = (to: string) =>
  function LinkRoot(props: Record<string, unknown>) {
    return <Link {...props} to={to} preventScrollReset />;
  };

interface RouteDialogProps {
  title: string;
  /** Where closing goes; without it the dialog has no close button and the overlay does nothing. */
  closeTo?: string;
  /** Rendered in the header in place of the close button (e.g. a form when closing must post). */
  headerAction?: ReactNode;
  children: ReactNode;
}

function useClose(closeTo: string | undefined) {
  const navigate = useNavigate();
  return () => {
    if (closeTo) navigate(closeTo, { preventScrollReset: true });
  };
}

/**
 * Spec 000: the payment and purchase drawers are 1100 wide (the default); spec 001: the cloud Hub drawer 900.
 * On a phone a drawer takes the whole width.
 */
export function RouteDrawer({ title, closeTo, headerAction, children, width = 1100 }: RouteDialogProps & { width?: number }) {
  return (
    <Drawer.Root opened onClose={useClose(closeTo)} position="right" size={`min(${width}px, 100vw)`} withinPortal={false} styles={PINNED_LEFT}>
      {closeTo ? <Drawer.Overlay renderRoot={linkTo(closeTo)} aria-hidden tabIndex={-1} onClick={leaveToCloseHandler} /> : <Drawer.Overlay />}
      <Drawer.Content aria-label={title}>
        <Drawer.Header>
          <Drawer.Title>{title}</Drawer.Title>
          {headerAction ?? (closeTo ? <Drawer.CloseButton renderRoot={linkTo(closeTo)} aria-label="Close" onClick={leaveToCloseHandler} /> : null)}
        </Drawer.Header>
        <Drawer.Body>{children}</Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}

/** Spec 000: modals are 600 or 700 wide. */
export function RouteModal({ title, closeTo, headerAction, children, size = 600 }: RouteDialogProps & { size?: number }) {
  return (
    <Modal.Root opened onClose={useClose(closeTo)} size={size} centered withinPortal={false} styles={PINNED_LEFT}>
      {closeTo ? <Modal.Overlay renderRoot={linkTo(closeTo)} aria-hidden tabIndex={-1} onClick={leaveToCloseHandler} /> : <Modal.Overlay />}
      <Modal.Content aria-label={title}>
        <Modal.Header>
          <Modal.Title>{title}</Modal.Title>
          {headerAction ?? (closeTo ? <Modal.CloseButton renderRoot={linkTo(closeTo)} aria-label="Close" onClick={leaveToCloseHandler} /> : null)}
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
