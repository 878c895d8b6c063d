import { Anchor, Text } from "~/ui/typography";
import { Group } from "~/ui/layout";

/**
 * A table's filter as plain links (one per value), so filtering works without JavaScript and each view has
 * its own URL. The chosen value is text marked `aria-current`, like the current page of PageLinks.
 */
export function FilterLinks<Value extends string>({
  label,
  options,
  current,
  href,
}: {
  /** The filtered column, e.g. "Type"; names the navigation landmark "Filter by Type". */
  label: string;
  options: { value: Value; label: string }[];
  current: Value;
  href: (value: Value) => string;
}) {
  return (
    <Group component="nav" aria-label={`Filter by ${label}`} gap="sm">
      <Text size="sm" fw={500}>
        {label}:
      </Text>
      {options.map((option) =>
        option.value === current ? (
          <Text key={option.value} size="sm" fw={700} aria-current="true">
            {option.label}
          </Text>
        ) : (
          <Anchor key={option.value} to={href(option.value)} size="sm" preventScrollReset>
            {option.label}
          </Anchor>
        ),
      )}
    </Group>
  );
}
