import sys

from citelens.cli import main

sys.exit(main())
