"""Every model of the app, gathered under its one label (`tournaments`): Django finds an app's
models by importing this module. Each model lives with its owner: the club in the kernel, the
rest in their format's package (`events`, `drives`, `teams`). Import them from there; this
module is only Django's door to them.
"""

from tournaments.drives import models as drive_models
from tournaments.events.models import (
    AuditEntry,
    Board,
    DirectorCall,
    Event,
    MovementRow,
    Pair,
    Player,
    PrintJob,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.kernel.models import Club, Invitation, Member, MemberAudit, PeopleAudit
from tournaments.seasons.models import (
    Competition,
    CompetitionPlay,
    Season,
    SeasonAudit,
    SeasonLine,
)
from tournaments.teams import models as team_models

__all__ = [
    "AuditEntry",
    "Board",
    "Club",
    "Competition",
    "CompetitionPlay",
    "DirectorCall",
    "Event",
    "Invitation",
    "Member",
    "MemberAudit",
    "MovementRow",
    "Pair",
    "PeopleAudit",
    "Player",
    "PrintJob",
    "Result",
    "Season",
    "SeasonAudit",
    "SeasonLine",
    "Section",
    "Standings",
    "TableAccess",
    "drive_models",
    "team_models",
]
