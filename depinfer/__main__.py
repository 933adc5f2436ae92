from depinfer.cli import main

raise SystemExit(main())
