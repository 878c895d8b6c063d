import { useNavigate } from "@remix-run/react";
import { Link } from "~/ui/link";
import { useId, useLayoutEffect, useRef, type CSSProperties, type ReactNode, type SyntheticEvent } from "react";

/**
 * Drawers and modals that are routes, as a native <dialog> drawn by app/styles/dialogs.css
 * (decision 101). The server renders it open, so it shows and its forms post without JavaScript; the close
 * button and the overlay are links to `closeTo`. Once hydrated it is shown again with showModal(): the
 * browser then makes the page behind inert, moves focus into the dialog and closes it on Escape (which
 * navigates to `closeTo`); leaving the route closes it, which gives focus back to what had it before.
 */
interface RouteDialogProps {
  title: string;
  /** Where closing goes; without it the dialog has no close button, and neither the overlay nor Escape closes it. */
  closeTo?: string;
  /** Rendered in the header in place of the close button (e.g. a form when closing must post). */
  headerAction?: ReactNode;
  children: ReactNode;
}

/**
 * How many close events of each dialog this module caused itself (closing to show it again as modal, or as its
 * route goes): those are not the user closing it. A count, since a nested dialog can be shown again twice
 * before its events arrive.
 */
const closedHere = new WeakMap<HTMLDialogElement, number>();

function closeHere(dialog: HTMLDialogElement) {
  if (!dialog.open) return;
  closedHere.set(dialog, (closedHere.get(dialog) ?? 0) + 1);
  dialog.close();
}

/** Whether this close event is one closeHere() caused (and counts it off). */
function wasClosedHere(dialog: HTMLDialogElement) {
  const count = closedHere.get(dialog) ?? 0;
  if (count > 0) closedHere.set(dialog, count - 1);
  return count > 0;
}

/**
 * showModal() moves focus to the dialog's first control. A control inside it that has focus already (typed into
 * before the page hydrated) keeps it: marked autofocus for the moment, it is where showModal() puts focus, so it
 * is not even blurred (a blur would validate a half-typed field).
 */
function showAsModal(dialog: HTMLDialogElement) {
  const focused = document.activeElement;
  const keep = focused instanceof HTMLElement && focused !== dialog && dialog.contains(focused) ? focused : null;
  keep?.setAttribute("autofocus", "");
  closeHere(dialog);
  dialog.showModal();
  keep?.removeAttribute("autofocus");
}

function RouteDialog({
  kind,
  width,
  title,
  closeTo,
  headerAction,
  children,
}: RouteDialogProps & { kind: "drawer" | "modal"; width: number }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const navigate = useNavigate();

  // A layout effect: modal before the first paint, and closed while the element is still in the document
  // when the route goes (closing is what gives focus back).
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.matches(":modal")) {
      showAsModal(dialog);
      // React runs a child's effects before its parent's: a dialog open inside this one (a billing drawer over
      // a wizard step) went modal first, and must be shown again to stay on top.
      dialog.querySelectorAll<HTMLDialogElement>("dialog[open]").forEach(showAsModal);
    }
    return () => closeHere(dialog);
  }, []);

  // React 18 passes a dialog's cancel and close events on to the dialogs around it: each handles only its own.
  const onCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget && !closeTo) event.preventDefault();
  };
  const onClose = (event: SyntheticEvent<HTMLDialogElement>) => {
    const dialog = event.currentTarget;
    if (event.target !== dialog || wasClosedHere(dialog)) return;
    if (closeTo) navigate(closeTo, { preventScrollReset: true });
    // The browser may close a modal dialog on Escape even when told not to (a second Escape without a click
    // between): one that closing must post to leave stays open.
    else dialog.showModal();
  };

  return (
    <dialog
      ref={ref}
      open
      className="gk-dialog"
      data-kind={kind}
      aria-labelledby={titleId}
      style={{ "--gk-dialog-width": `${width}px` } as CSSProperties}
      onCancel={onCancel}
      onClose={onClose}
    >
      <div className="gk-dialog-panel">
        <div className="gk-dialog-header">
          <h2 id={titleId} className="gk-dialog-title">
            {title}
          </h2>
          {headerAction ??
            (closeTo ? (
              <Link to={closeTo} preventScrollReset className="gk-dialog-close" aria-label="Close">
                <CloseIcon />
              </Link>
            ) : null)}
        </div>
        <div className="gk-dialog-body">{children}</div>
      </div>
      {/* Covers the window behind the panel (dialogs.css). After the panel, so that the browser's first focus
          inside the dialog lands in the panel. */}
      {closeTo ? (
        <Link to={closeTo} preventScrollReset className="gk-dialog-overlay" aria-hidden tabIndex={-1} />
      ) : (
        <div className="gk-dialog-overlay" />
      )}
    </dialog>
  );
}

function CloseIcon() {
  return (
    <svg viewBox="0 0 15 15" width="20" height="20" aria-hidden focusable="false">
      <path
        d="M11.78 4.03a.57.57 0 0 0-.81-.81L7.5 6.69 4.03 3.22a.57.57 0 0 0-.81.81L6.69 7.5l-3.47 3.47a.57.57 0 0 0 .81.81L7.5 8.31l3.47 3.47a.57.57 0 0 0 .81-.81L8.31 7.5l3.47-3.47Z"
        fill="currentColor"
      />
    </svg>
  );
}

/**
 * Drawer widths: the payment and purchase drawers 1100 (the default), the cloud Hub drawer 900.
 * On a phone a drawer takes the whole width.
 */
export function RouteDrawer({ width = 1100, ...props }: RouteDialogProps & { width?: number }) {
  return <RouteDialog kind="drawer" width={width} {...props} />;
}

/** Modals are 600 (the default) or 700 wide. */
export function RouteModal({ size = 600, ...props }: RouteDialogProps & { size?: number }) {
  return <RouteDialog kind="modal" width={size} {...props} />;
}
