import { List, ThemeIcon } from "~/ui/list";
import { PASSWORD_REQUIREMENTS } from "~/domain/password-requirements";
import { ACCESSIBLE_GREEN } from "./theme";

/**
 * The new password's requirements. As the user types (JavaScript), each is ticked or marked; after a
 * submit without JavaScript, the server's list of unmet ones marks them; before either, a plain list.
 */
export function PasswordChecklist({
  id,
  password,
  unmet,
}: {
  id: string;
  password: string | null;
  unmet: string[] | null;
}) {
  const isMet = (requirement: (typeof PASSWORD_REQUIREMENTS)[number]) =>
    password !== null ? requirement.test(password) : unmet !== null ? !unmet.includes(requirement.id) : null;
  return (
    <List id={id} size="sm" spacing={2} center aria-live="polite">
      {PASSWORD_REQUIREMENTS.map((requirement) => {
        const met = isMet(requirement);
        return (
          <List.Item
            key={requirement.id}
            c={met === null ? undefined : met ? ACCESSIBLE_GREEN : "red.9"}
            icon={
              <ThemeIcon
                size={18}
                color={met === null ? "gray.7" : met ? ACCESSIBLE_GREEN : "red.9"}
                aria-hidden="true"
              >
                {met === null ? "•" : met ? "✓" : "✗"}
              </ThemeIcon>
            }
          >
            {requirement.label}
            {met === null ? null : <span className="gk-visually-hidden">{met ? " (met)" : " (not met)"}</span>}
          </List.Item>
        );
      })}
    </List>
  );
}
