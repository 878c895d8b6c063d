CREATE TABLE `organization_counts` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`members` integer DEFAULT 0 NOT NULL,
	`invoices` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Hand-written below: drizzle's schema cannot declare triggers. organization_counts holds each organization's
-- number of members and of invoices; these triggers keep it in the same transaction as the change to memberships
-- or invoices, whichever code (or tool) writes it, so a total is never stale (decision 192). An upsert that updates
-- fires no insert trigger, and INSERT OR REPLACE is not used on either table (its implicit delete would skip the
-- delete trigger unless recursive_triggers is on).
CREATE TRIGGER `organization_counts_after_member_insert` AFTER INSERT ON `memberships` BEGIN
	INSERT INTO `organization_counts` (`organization_id`, `members`) VALUES (NEW.`organization_id`, 1)
		ON CONFLICT (`organization_id`) DO UPDATE SET `members` = `members` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `organization_counts_after_member_delete` AFTER DELETE ON `memberships` BEGIN
	UPDATE `organization_counts` SET `members` = `members` - 1 WHERE `organization_id` = OLD.`organization_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `organization_counts_after_member_move` AFTER UPDATE OF `organization_id` ON `memberships`
	WHEN NEW.`organization_id` IS NOT OLD.`organization_id` BEGIN
	UPDATE `organization_counts` SET `members` = `members` - 1 WHERE `organization_id` = OLD.`organization_id`;
	INSERT INTO `organization_counts` (`organization_id`, `members`) VALUES (NEW.`organization_id`, 1)
		ON CONFLICT (`organization_id`) DO UPDATE SET `members` = `members` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `organization_counts_after_invoice_insert` AFTER INSERT ON `invoices` BEGIN
	INSERT INTO `organization_counts` (`organization_id`, `invoices`) VALUES (NEW.`owner_id`, 1)
		ON CONFLICT (`organization_id`) DO UPDATE SET `invoices` = `invoices` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `organization_counts_after_invoice_delete` AFTER DELETE ON `invoices` BEGIN
	UPDATE `organization_counts` SET `invoices` = `invoices` - 1 WHERE `organization_id` = OLD.`owner_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `organization_counts_after_invoice_move` AFTER UPDATE OF `owner_id` ON `invoices`
	WHEN NEW.`owner_id` IS NOT OLD.`owner_id` BEGIN
	UPDATE `organization_counts` SET `invoices` = `invoices` - 1 WHERE `organization_id` = OLD.`owner_id`;
	INSERT INTO `organization_counts` (`organization_id`, `invoices`) VALUES (NEW.`owner_id`, 1)
		ON CONFLICT (`organization_id`) DO UPDATE SET `invoices` = `invoices` + 1;
END;
--> statement-breakpoint
-- The members and invoices already there (a data step: runs once, in the same migration as the triggers).
INSERT INTO `organization_counts` (`organization_id`, `members`, `invoices`)
	SELECT `id`,
		(SELECT count(*) FROM `memberships` WHERE `memberships`.`organization_id` = `organizations`.`id`),
		(SELECT count(*) FROM `invoices` WHERE `invoices`.`owner_id` = `organizations`.`id`)
	FROM `organizations`;
