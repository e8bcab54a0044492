/**
 * The tab's title, written in one place: the page in view names itself (a table: its
 * game, and "your turn" while the seat may act), and the signed-in player's count of
 * tables waiting for them goes in front ("(2) …"). Two parts of the page writing
 * `document.title` each in its own effect left the title to whichever ran last.
 */
import { turns } from "./turns.svelte";

/** What the page in view calls itself; "necropolis" when it says nothing. */
export const title = $state<{ page: string }>({ page: "necropolis" });

/** The whole title, as the App writes it into `document.title`. */
export function tabTitle(): string {
  return turns.count > 0 ? `(${turns.count}) ${title.page}` : title.page;
}
