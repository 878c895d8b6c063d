import { Alert } from "@mantine/core";
import { useEffect, useState } from "react";
import { ACCESSIBLE_GREEN } from "./theme";

export interface ToastView {
  kind: "success" | "error" | "info";
  message: string;
}

// White text on the filled alert: these shades keep it at WCAG AA contrast (Mantine's default green and red do not).
const COLORS = { success: ACCESSIBLE_GREEN, error: "red.9", info: "gatekeeper" } as const;

/**
 * A flash message from the server. It is in the HTML, so it shows without JavaScript; with
 * JavaScript it can be dismissed and fades after a while.
 */
export function ToastMessage({ toast }: { toast: ToastView }) {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    setVisible(true);
    const timer = setTimeout(() => setVisible(false), 8000);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!visible) return null;
  return (
    <div className="gk-toast-region">
      <Alert
        role={toast.kind === "error" ? "alert" : "status"}
        color={COLORS[toast.kind]}
        variant="filled"
        withCloseButton
        closeButtonLabel="Dismiss message"
        onClose={() => setVisible(false)}
      >
        {toast.message}
      </Alert>
    </div>
  );
}
