import { createBrowserRouter, type LoaderFunctionArgs, Navigate, type RouteObject } from "react-router";
import { readListParams, toApiQuery } from "../features/models-list/list-params.js";
import { modelListQuery, modelQuery } from "../lib/api/models.js";
import { commitsQuery, historyPageParam, treeQuery } from "../lib/api/repo-files.js";
import { queryClient } from "../lib/query-client.js";
import { AppLayout } from "./app-layout.js";
import { RouteError } from "./route-error.js";

// Loaders start a page's data request at once, in parallel with downloading its code; they do not wait
// for it (the page shows its own loading state), so navigation is never blocked on the network.
function prefetchModels({ request }: LoaderFunctionArgs) {
  const params = readListParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(modelListQuery(toApiQuery(params)));
  return null;
}

function prefetchModel({ params }: LoaderFunctionArgs) {
  void queryClient.prefetchQuery(modelQuery(`${params.owner}/${params.name}`));
  return null;
}

// Only a different repository needs its data; the sections' own query strings (panel state) do not.
const sameRepo: RouteObject["shouldRevalidate"] = ({ currentParams, nextParams }) =>
  currentParams.owner !== nextParams.owner || currentParams.name !== nextParams.name;

const repoCardPage = () => import("./pages/repo-card-page.js").then((m) => ({ Component: m.RepoCardPage }));

/** The repository, revision and path of a files route (`tree/:rev/*`, `commits/:rev/*`), as its page reads them. */
function filesRoute({ params, request }: LoaderFunctionArgs) {
  const kind = /^\/(datasets|spaces)\//.exec(new URL(request.url).pathname)?.[1];
  return {
    repo: {
      type: kind === "datasets" ? "dataset" : kind === "spaces" ? "space" : "model",
      id: `${params.owner}/${params.name}`,
    } as const,
    revision: params.rev ?? "main",
    path: (params["*"] ?? "").replace(/\/+$/, ""),
  };
}

// A folder's first page and a page of history are asked for beside the repository and the page's code, not
// after them.
function prefetchTree(args: LoaderFunctionArgs) {
  const { repo, revision, path } = filesRoute(args);
  void queryClient.prefetchInfiniteQuery(treeQuery(repo, revision, path));
  return null;
}

function prefetchCommits(args: LoaderFunctionArgs) {
  const { repo, revision, path } = filesRoute(args);
  const page = historyPageParam(new URL(args.request.url).searchParams);
  void queryClient.prefetchQuery(commitsQuery(repo, revision, page, path));
  return null;
}

/** The sections every repository page has (files, history, uploads, community, settings), under its id. */
const REPO_SECTIONS: RouteObject[] = [
  {
    path: "tree/:rev/*",
    loader: prefetchTree,
    lazy: () => import("./pages/repo-files-pages.js").then((m) => ({ Component: m.FilesPage })),
  },
  {
    path: "blob/:rev/*",
    lazy: () => import("./pages/repo-files-pages.js").then((m) => ({ Component: m.FilePage })),
  },
  {
    path: "commits/:rev/*",
    loader: prefetchCommits,
    lazy: () => import("./pages/repo-files-pages.js").then((m) => ({ Component: m.CommitsPage })),
  },
  {
    path: "commit/:oid",
    lazy: () => import("./pages/repo-files-pages.js").then((m) => ({ Component: m.CommitPage })),
  },
  {
    path: "upload/:rev/*",
    lazy: () => import("./pages/repo-upload-pages.js").then((m) => ({ Component: m.UploadPage })),
  },
  {
    path: "new/:rev/*",
    lazy: () => import("./pages/repo-upload-pages.js").then((m) => ({ Component: m.NewFilePage })),
  },
  {
    path: "edit/:rev/*",
    lazy: () => import("./pages/repo-upload-pages.js").then((m) => ({ Component: m.EditFilePage })),
  },
  {
    path: "discussions",
    lazy: () => import("./pages/repo-admin-pages.js").then((m) => ({ Component: m.CommunityPage })),
  },
  {
    path: "discussions/:num",
    lazy: () => import("./pages/repo-admin-pages.js").then((m) => ({ Component: m.DiscussionPage })),
  },
  {
    path: "settings",
    lazy: () => import("./pages/repo-admin-pages.js").then((m) => ({ Component: m.SettingsPage })),
  },
];

// Every page is its own chunk: the model page never downloads the playground or the widget builder.
export const router = createBrowserRouter([
  {
    path: "/",
    Component: AppLayout,
    ErrorBoundary: RouteError,
    // Shown while the first page's chunk loads; the inline theme already coloured the page.
    HydrateFallback: () => null,
    children: [
      { index: true, element: <Navigate to="/models" replace /> },
      {
        path: "models",
        loader: prefetchModels,
        lazy: () => import("./pages/models-page.js").then((m) => ({ Component: m.ModelsPage })),
      },
      {
        path: ":owner/:name",
        loader: prefetchModel,
        shouldRevalidate: sameRepo,
        lazy: () => import("./pages/model-layout.js").then((m) => ({ Component: m.ModelLayout })),
        children: [
          {
            index: true,
            lazy: () => import("./pages/model-card-page.js").then((m) => ({ Component: m.ModelCardPage })),
          },
          {
            path: "libraries/:library",
            lazy: () => import("./pages/library-page.js").then((m) => ({ Component: m.LibraryPage })),
          },
          {
            path: "local-apps/:app?",
            lazy: () => import("./pages/local-app-page.js").then((m) => ({ Component: m.LocalAppPage })),
          },
          {
            path: "inference",
            lazy: () => import("./pages/inference-page.js").then((m) => ({ Component: m.InferencePage })),
          },
          {
            path: "playground",
            lazy: () => import("./pages/playground-page.js").then((m) => ({ Component: m.PlaygroundPage })),
          },
          ...REPO_SECTIONS,
          {
            path: "chat-template",
            lazy: () =>
              import("./pages/chat-template-page.js").then((m) => ({ Component: m.ChatTemplatePage })),
          },
        ],
      },
      {
        path: "datasets",
        lazy: () => import("./pages/repo-lists-pages.js").then((m) => ({ Component: m.DatasetsPage })),
      },
      {
        path: "spaces",
        lazy: () => import("./pages/repo-lists-pages.js").then((m) => ({ Component: m.SpacesPage })),
      },
      {
        path: "datasets/:owner/:name",
        shouldRevalidate: sameRepo,
        lazy: () => import("./pages/repo-layout.js").then((m) => ({ Component: m.DatasetLayout })),
        children: [{ index: true, lazy: repoCardPage }, ...REPO_SECTIONS],
      },
      {
        path: "spaces/:owner/:name",
        shouldRevalidate: sameRepo,
        lazy: () => import("./pages/repo-layout.js").then((m) => ({ Component: m.SpaceLayout })),
        children: [{ index: true, lazy: repoCardPage }, ...REPO_SECTIONS],
      },
      {
        path: "new",
        lazy: () => import("./pages/new-repo-pages.js").then((m) => ({ Component: m.NewModelPage })),
      },
      {
        path: "new-dataset",
        lazy: () => import("./pages/new-repo-pages.js").then((m) => ({ Component: m.NewDatasetPage })),
      },
      {
        path: "new-space",
        lazy: () => import("./pages/new-repo-pages.js").then((m) => ({ Component: m.NewSpacePage })),
      },
      {
        path: ":owner",
        lazy: () => import("./pages/user-page.js").then((m) => ({ Component: m.UserPage })),
      },
      {
        path: "widget-builder",
        lazy: () =>
          import("./pages/widget-builder-page.js").then((m) => ({ Component: m.WidgetBuilderPage })),
      },
      {
        path: "login",
        lazy: () => import("./pages/sign-in-page.js").then((m) => ({ Component: m.SignInPage })),
      },
      {
        path: "join",
        lazy: () => import("./pages/sign-up-page.js").then((m) => ({ Component: m.SignUpPage })),
      },
      {
        path: "settings/:section",
        lazy: () => import("./pages/settings-page.js").then((m) => ({ Component: m.SettingsPage })),
      },
      { path: "settings", element: <Navigate to="/settings/profile" replace /> },
      {
        path: "admin/:section",
        lazy: () => import("./pages/admin-page.js").then((m) => ({ Component: m.AdminPage })),
      },
      { path: "admin", element: <Navigate to="/admin/settings" replace /> },
      {
        path: "organizations/invites/:code",
        lazy: () => import("./pages/org-invite-page.js").then((m) => ({ Component: m.OrgInvitePage })),
      },
      {
        path: "organizations/:org",
        lazy: () => import("./pages/organization-page.js").then((m) => ({ Component: m.OrganizationPage })),
      },
      {
        path: "*",
        lazy: () => import("./pages/not-found-page.js").then((m) => ({ Component: m.NotFoundPage })),
      },
    ],
  },
]);
