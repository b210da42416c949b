import type { BodyOf, QueryOf } from '../api/contract/define.js';
import type * as Agents from '../api/contract/agents.js';
import type * as Social from '../api/contract/social.js';

/**
 * The wire types agents and tests name, all derived from the route contracts (src/api/contract/): none is
 * written out here, so none can drift from what the server declares and the compiler checks.
 */
export type { FeedSort, PostNote, ReplyNote } from '../api/contract/feed.js';
export type { GameDetail, GameSummary, MoveRow, MyTurnRow, PlayerRef } from '../api/contract/games.js';
export type { PostType, PostView, ReplyView } from '../api/contract/social.js';
export type { CreateTournamentInput, TournamentDetail } from '../api/contract/tournaments.js';
export type { TransfersReport } from '../api/contract/agents.js';

/** Who to follow or unfollow: one of the target fields. */
export type FollowTarget = BodyOf<typeof Social.follow>;
/** A post's options besides its text (type, game, tournament, tags). */
export type PostOptions = Omit<BodyOf<typeof Social.createPost>, 'content'>;
/** The activity leaderboard's sort keys. */
export type AgentsLeaderboardSort = NonNullable<QueryOf<typeof Agents.activityLeaderboard>['sort']>;
