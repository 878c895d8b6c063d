import { List, ThemeIcon } from "@mantine/core";
import { ACCESSIBLE_GREEN } from "../theme";

export type ProgressState = "done" | "running" | "waiting" | "failed";

/** A durable job's steps as a vertical list the user can follow (the progress modals of the spec). */
export function JobProgress({ steps, label }: { steps: { title: string; state: ProgressState }[]; label: string }) {
  const icon: Record<ProgressState, { mark: string; color: string; words: string }> = {
    done: { mark: "✓", color: ACCESSIBLE_GREEN, words: "done" },
    running: { mark: "…", color: "gatekeeper.7", words: "in progress" },
    waiting: { mark: "•", color: "gray.6", words: "waiting" },
    failed: { mark: "✗", color: "red.9", words: "failed" },
  };
  return (
    <List spacing="sm" center aria-label={label}>
      {steps.map((step) => (
        <List.Item
          key={step.title}
          data-state={step.state}
          icon={
            <ThemeIcon size={22} radius="xl" color={icon[step.state].color} aria-hidden="true">
              {icon[step.state].mark}
            </ThemeIcon>
          }
        >
          {step.title}
          <span className="gk-visually-hidden"> ({icon[step.state].words})</span>
        </List.Item>
      ))}
    </List>
  );
}
