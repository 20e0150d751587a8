import GRDB

/// The statements over the `items` table and its `item_tags` lookup tags that the engine runs.
/// Each function runs its statement in the caller's transaction; rows come back raw (in
/// ``ItemRow/columns`` order where noted) for the caller to decode and check.
///
/// ``ItemRow`` itself owns the statements that insert and rewrite one row with its tags.
enum ItemTable {}
