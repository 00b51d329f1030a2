/* The one helper that reads the command table's need (cmd.h). */
#include "cmd/cmd.h"
#include "util/file.h"
#include "banned.h"

const struct command *cmd_current;

const struct rd_need *cmd_need(void)
{
	return cmd_current && cmd_current->need ? cmd_current->need : &rd_need_any_dir;
}

int cmd_open_run(const char *path, struct rundir *rd, struct buf *err)
{
	return rd_open(rd, path, cmd_need(), err);
}

int cmd_is_run(const char *path)
{
	return is_dir(path) && rd_meets(rd_probe(path), cmd_need());
}
