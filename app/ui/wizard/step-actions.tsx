import { Text } from "~/ui/typography";
import { Button, LinkButton } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";

/**
 * Previous and Next of a wizard step. Next is a submit of the step's form; when it cannot go on, it is
 * disabled and the reason is visible text, so the hint exists without hover or JavaScript.
 */
export function StepActions({
  previousTo,
  nextLabel,
  disabledReason,
  hint,
  busy = false,
  busyLabel,
}: {
  previousTo?: string;
  nextLabel: string;
  disabledReason?: string | null;
  /** Said under Next without disabling it, e.g. after the server refused the form (it can be fixed and sent again). */
  hint?: string | null;
  busy?: boolean;
  busyLabel?: string;
}) {
  return (
    <Stack gap={4} align="flex-end" mt="lg">
      <Group justify="space-between" w="100%">
        {previousTo ? (
          <LinkButton to={previousTo} variant="default">
            Previous
          </LinkButton>
        ) : (
          <span />
        )}
        <Button
          type="submit"
          name="intent"
          value="next"
          disabled={Boolean(disabledReason)}
          loading={busy}
          aria-describedby={disabledReason ? "next-disabled-reason" : undefined}
        >
          {busy && busyLabel ? busyLabel : nextLabel}
        </Button>
      </Group>
      {disabledReason || hint ? (
        <Text size="sm" c="red.9" id="next-disabled-reason">
          {disabledReason ?? hint}
        </Text>
      ) : null}
    </Stack>
  );
}
