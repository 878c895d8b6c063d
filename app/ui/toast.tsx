import { useEffect, useState } from "react";
import { TOAST_VISIBLE_MS } from "~/ui/toast-timing";

export interface ToastView {
  kind: "success" | "error" | "info";
  message: string;
}

/**
 * A flash message from the server. It is in the HTML, so it shows without JavaScript; with
 * JavaScript it can be dismissed and fades after a while. Plain elements (app/styles/app.css), drawn like
 * Mantine's filled Alert, as it can show on any page.
 */
export function ToastMessage({ toast }: { toast: ToastView }) {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    setVisible(true);
    const timer = setTimeout(() => setVisible(false), TOAST_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!visible) return null;
  return (
    <div className="gk-toast-region">
      <div className="gk-toast" data-kind={toast.kind} role={toast.kind === "error" ? "alert" : "status"}>
        <p>{toast.message}</p>
        <button type="button" className="gk-toast-close" aria-label="Dismiss message" onClick={() => setVisible(false)}>
          ×
        </button>
      </div>
    </div>
  );
}
