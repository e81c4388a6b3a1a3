// The data behind the extension's result trees (Map Changes, Map Dependencies): rows with a
// label, a description and children, shown expanded, replaced as a whole on each new answer.
// Each view says how one of its rows becomes a tree item.

import * as vscode from "vscode";

export interface TreeRow<N> {
  label: string;
  description?: string;
  children: N[];
}

export class ResultTree<N extends TreeRow<N>> implements vscode.TreeDataProvider<N> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: N[] = [];

  /** `decorate` adds a row's command, icon and the like to its item. */
  constructor(private readonly decorate: (node: N, item: vscode.TreeItem) => void) {}

  show(roots: N[]): void {
    this.roots = roots;
    this.changed.fire();
  }

  getTreeItem(node: N): vscode.TreeItem {
    const item = new vscode.TreeItem(
      node.label,
      node.children.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.description = node.description;
    item.tooltip = node.description ? `${node.label}: ${node.description}` : node.label;
    this.decorate(node, item);
    return item;
  }

  getChildren(node?: N): N[] {
    return node ? node.children : this.roots;
  }
}
