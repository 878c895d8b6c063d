PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`owner_id` text,
	`idempotency_key` text NOT NULL,
	`input` text NOT NULL,
	`steps` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`error` text,
	`result` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_run_at` integer,
	`lease_holder` text,
	`lease_until` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_jobs`("id", "kind", "owner_id", "idempotency_key", "input", "steps", "status", "error", "result", "attempts", "next_run_at", "lease_holder", "lease_until", "created_at", "updated_at", "finished_at") SELECT "id", "kind", "owner_id", "idempotency_key", "input", "steps", "status", "error", "result", "attempts", "next_run_at", "lease_holder", "lease_until", "created_at", "updated_at", "finished_at" FROM `jobs`;--> statement-breakpoint
DROP TABLE `jobs`;--> statement-breakpoint
ALTER TABLE `__new_jobs` RENAME TO `jobs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_idempotency_key_unique` ON `jobs` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `jobs_owner_idx` ON `jobs` (`owner_id`);--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`status`,`next_run_at`);