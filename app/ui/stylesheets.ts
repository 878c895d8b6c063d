import mantineAll from "~/styles/mantine-all.css";
import mantineButton from "~/styles/mantine-button.css";
import mantineData from "~/styles/mantine-data.css";
import mantineForms from "~/styles/mantine-forms.css";

/**
 * Mantine's component styles in groups: a route links the one group its page uses (`links`), so a page
 * downloads only the CSS it paints with, in few files (each file is compressed on its own). The root
 * links Mantine's base and text (app/styles/root.css); a child route's links come after its parents',
 * so a group builds on what the layouts load.
 */
const stylesheet = (href: string) => ({ rel: "stylesheet", href });

/** Buttons alone, for a page whose only form part is a button (its dialogs and wizards link the forms group). */
export const BUTTON_STYLES = stylesheet(mantineButton);
/** Buttons, inputs, checkboxes and radios. */
export const FORM_STYLES = stylesheet(mantineForms);
/** Table, Badge, Card, SimpleGrid. */
export const DATA_STYLES = stylesheet(mantineData);
/** Forms, Drawer and Modal, Table, Card, SimpleGrid, List, ThemeIcon (no Badge). */
export const ALL_PARTS_STYLES = stylesheet(mantineAll);
