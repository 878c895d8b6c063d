ALTER TABLE `memberships` ADD `sort_last_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `memberships` ADD `sort_first_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `memberships_name_idx` ON `memberships` (`organization_id`,`sort_last_name`,`sort_first_name`,`user_id`);--> statement-breakpoint
-- Hand-written below: drizzle's schema cannot declare triggers. memberships.sort_last_name and sort_first_name
-- copy the person's name so the team page reads one page of members off memberships_name_idx, in the order it
-- always had (last name, first name, then the person's id; same column type and collation as users' names),
-- instead of joining and sorting every member. These triggers keep the copy in the same transaction as the
-- change, whichever code (or tool) writes it (decision 194).
CREATE TRIGGER `memberships_name_after_insert` AFTER INSERT ON `memberships` BEGIN
	UPDATE `memberships` SET (`sort_last_name`, `sort_first_name`) =
		(SELECT `last_name`, `first_name` FROM `users` WHERE `id` = NEW.`user_id`)
		WHERE `organization_id` = NEW.`organization_id` AND `user_id` = NEW.`user_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `memberships_name_after_new_person` AFTER UPDATE OF `user_id` ON `memberships` BEGIN
	UPDATE `memberships` SET (`sort_last_name`, `sort_first_name`) =
		(SELECT `last_name`, `first_name` FROM `users` WHERE `id` = NEW.`user_id`)
		WHERE `organization_id` = NEW.`organization_id` AND `user_id` = NEW.`user_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `memberships_name_after_person_renamed` AFTER UPDATE OF `first_name`, `last_name` ON `users`
	WHEN NEW.`first_name` IS NOT OLD.`first_name` OR NEW.`last_name` IS NOT OLD.`last_name` BEGIN
	UPDATE `memberships` SET `sort_last_name` = NEW.`last_name`, `sort_first_name` = NEW.`first_name`
		WHERE `user_id` = NEW.`id`;
END;
--> statement-breakpoint
-- The memberships already there (a data step: runs once, in the same migration as the triggers).
UPDATE `memberships` SET (`sort_last_name`, `sort_first_name`) =
	(SELECT `last_name`, `first_name` FROM `users` WHERE `users`.`id` = `memberships`.`user_id`);
