import forms from "~/styles/forms.css";
import mantineList from "~/styles/mantine-list.css";

/**
 * The page's parts beyond text (the root's app/styles/root.css) and the frame (the portal layout's portal.css), in
 * two layers that never repeat a rule (decision 102): a route's `links` name the layers its page renders with,
 * and Remix drops the ones a parent route already linked, so a dialog or wizard over a list page adds only its
 * own layer. Each layer is one file: gzip compresses a file on its own, so every split costs bytes.
 */
const stylesheet = (href: string) => ({ rel: "stylesheet", href });

/** Buttons, tables and badges: list pages, and under everything else with a button. */
export const LIST_STYLES = [stylesheet(mantineList)];
/** + inputs, choices, alerts, cards, lists, route dialogs and the wizards' stepper. */
export const FORM_STYLES = [...LIST_STYLES, stylesheet(forms)];
