-- Hand-written (drizzle-kit generate --custom): drizzle's schema cannot declare triggers. license_counts holds
-- each owner's number of licenses; these triggers keep it in the same transaction as the change to licenses,
-- whichever code (or tool) writes it, so the total is never stale (decision 120). An upsert never fires the
-- insert trigger when it updates instead, and INSERT OR REPLACE is not used on licenses (its implicit delete
-- would skip the delete trigger unless recursive_triggers is on).
CREATE TRIGGER `license_counts_after_insert` AFTER INSERT ON `licenses` BEGIN
	INSERT INTO `license_counts` (`owner_id`, `total`) VALUES (NEW.`owner_id`, 1)
		ON CONFLICT (`owner_id`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `license_counts_after_delete` AFTER DELETE ON `licenses` BEGIN
	UPDATE `license_counts` SET `total` = `total` - 1 WHERE `owner_id` = OLD.`owner_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `license_counts_after_owner_change` AFTER UPDATE OF `owner_id` ON `licenses`
	WHEN NEW.`owner_id` IS NOT OLD.`owner_id` BEGIN
	UPDATE `license_counts` SET `total` = `total` - 1 WHERE `owner_id` = OLD.`owner_id`;
	INSERT INTO `license_counts` (`owner_id`, `total`) VALUES (NEW.`owner_id`, 1)
		ON CONFLICT (`owner_id`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
-- The licenses already there (a data step: runs once, in the same migration as the triggers).
INSERT INTO `license_counts` (`owner_id`, `total`) SELECT `owner_id`, count(*) FROM `licenses` GROUP BY `owner_id`;
